# The certificates of a site (never their PEM), and the names that have a free one.
data "reseller_certificates" "shop" {
  package = "shop.example.com"
}

output "secured_names" {
  value = data.reseller_certificates.shop.free_common_names
}

output "certificates" {
  value = [for c in data.reseller_certificates.shop.certificates : "${c.common_name} (${c.provider}, ${c.issued_at})"]
}
