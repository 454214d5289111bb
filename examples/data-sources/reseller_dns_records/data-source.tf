# The MX records of a package's primary zone (SOA and NS are not listed).
data "reseller_dns_records" "mx" {
  package = "shop.example.com"
  type    = "MX"
}

# Every record at www of one of its other zones.
data "reseller_dns_records" "www" {
  package = "shop.example.com"
  zone    = "shop.example.net"
  name    = "www"
}

output "mail_hosts" {
  value = [for r in data.reseller_dns_records.mx.records : "${r.priority} ${r.value}"]
}
