# The autoresponder of one address the configuration does not manage.
data "reseller_autoresponder" "info" {
  package    = "example.com"
  local_part = "info"
}
