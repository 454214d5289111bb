data "reseller_cloud_servers" "uk" {
  zone = "dc_location-uk"
}
