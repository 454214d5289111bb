# Every MySQL database of one package (one read of that package's databases).
data "reseller_mysql_databases" "shop" {
  package = "shop.example.com"
}

output "database_names" {
  value = [for db in data.reseller_mysql_databases.shop.mysql_databases : db.stored_name]
}
