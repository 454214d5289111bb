data "reseller_cloud_server" "web1" {
  host_name = "web1.example.com"
}

output "web1_server_id" {
  value = data.reseller_cloud_server.web1.server_id
}
