# Every package on the account whose domain ends in ".example.com".
data "reseller_packages" "shops" {
  name_suffix = ".example.com"
}

output "shop_domains" {
  value = data.reseller_packages.shops.domain_names
}
