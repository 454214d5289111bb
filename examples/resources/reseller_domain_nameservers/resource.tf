# The customer's DNS is hosted at Cloudflare: delegate the registration there. The domain
# must be one the account has registered (it is adopted, never registered or renewed);
# the apply writes only the difference against what the registry holds.
resource "reseller_domain_nameservers" "registered" {
  domain      = "example-registered.net"
  nameservers = ["ada.ns.cloudflare.com", "bob.ns.cloudflare.com"]
}
