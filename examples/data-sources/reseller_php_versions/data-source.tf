# The PHP versions the service offers a package, and the one it runs now.
data "reseller_php_versions" "shop" {
  package = "shop.example.com"
}

output "php" {
  value = {
    running = data.reseller_php_versions.shop.current
    newest  = data.reseller_php_versions.shop.latest
    offered = data.reseller_php_versions.shop.versions
  }
}
