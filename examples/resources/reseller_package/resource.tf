resource "reseller_package" "site" {
  domain_name        = "example.com"
  extra_domain_names = ["example.net"]
  package_type       = "Linux Unlimited"
  label              = "Example Ltd"
  document_roots = {
    "example.net" = "public_html/net"
  }
}
