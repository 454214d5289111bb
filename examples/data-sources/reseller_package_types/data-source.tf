data "reseller_package_types" "linux" {
  platform = "linux"
}
