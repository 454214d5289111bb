# One registration: its expiry, nameservers and transfer lock.
data "reseller_domain" "registered" {
  name = "example-registered.net"
}

output "registered_nameservers" {
  value = data.reseller_domain.registered.nameservers
}

output "registered_expires" {
  value = data.reseller_domain.registered.expiry_date
}
