terraform import reseller_dns_record.store example-records.com/store/CNAME/shops.example.net
