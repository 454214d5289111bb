resource "reseller_package" "records" {
  domain_name  = "example-records.com"
  package_type = "Linux Unlimited"
}

# The shop's storefront at a hosted shop service.
resource "reseller_dns_record" "store" {
  package = reseller_package.records.domain_name
  name    = "store"
  type    = "CNAME"
  value   = "shops.example.net"
}

# Mail for the domain is also accepted by a backup exchanger.
resource "reseller_dns_record" "mx_backup" {
  package  = reseller_package.records.domain_name
  name     = "@"
  type     = "MX"
  value    = "backup-mx.example.net"
  priority = 20
}

resource "reseller_dns_record" "spf" {
  package = reseller_package.records.domain_name
  name    = "@"
  type    = "TXT"
  value   = "v=spf1 include:example.net ~all"
}

# A record in the own zone of a registered domain name that no package holds
# (`domain` instead of `package`; its zone is the domain itself).
resource "reseller_dns_record" "verification" {
  domain = "example-registered.net"
  name   = "@"
  type   = "TXT"
  value  = "site-verification=4f2a9c"
}
