# A database another stack (or the control panel) made: its host and stored name.
data "reseller_mysql_database" "legacy" {
  package = "shop.example.com"
  name    = "legacy"
}

output "legacy_host" {
  value = data.reseller_mysql_database.legacy.host
}
