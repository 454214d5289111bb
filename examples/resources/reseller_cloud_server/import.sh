terraform import reseller_cloud_server.web1 web1.example-cloud.com
