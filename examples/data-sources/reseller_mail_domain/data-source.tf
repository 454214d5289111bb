# The mailboxes and forwarders of a package's mail domain.
data "reseller_mail_domain" "site" {
  package = "example.com"
}
