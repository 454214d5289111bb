terraform import reseller_dns_record.store example-records.com/store/CNAME/shops.example.net
terraform import reseller_dns_record.verification domain:example-registered.net/@/TXT/site-verification=4f2a9c
