resource "reseller_package" "blog" {
  domain_name  = "example-blog.com"
  package_type = "Linux Unlimited"
}

resource "reseller_forwarder" "sales" {
  package    = reseller_package.blog.domain_name
  local_part = "sales"
  remote     = "team@example.org"
}
