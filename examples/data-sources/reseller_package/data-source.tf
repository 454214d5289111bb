# A package this configuration does not manage, by any of its domain names.
data "reseller_package" "legacy" {
  name = "legacy.example.com"
}

output "legacy_package_id" {
  value = data.reseller_package.legacy.package_id
}
