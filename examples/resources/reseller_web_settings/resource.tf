resource "reseller_package" "web" {
  domain_name        = "example-web.com"
  extra_domain_names = ["example-web.net"]
  package_type       = "Linux Unlimited"
}

# HTTPS for the site: a free certificate for the domain and its www name, every
# request redirected to HTTPS, and PHP 8.2 (one the package is offered: see the
# reseller_php_versions data source).
resource "reseller_web_settings" "web" {
  package           = reseller_package.web.domain_name
  force_https       = true
  free_certificates = ["example-web.com", "www.example-web.com"]
  php_version       = "8.2"

  # A certificate is issued once the name's DNS points at the service. Wait up to
  # 15 minutes for it, then fail rather than go on without it.
  on_certificate_timeout = "fail"
  timeouts {
    create = "15m"
  }
}
