resource "reseller_stack_user" "ops" {
  email       = "ops@example-cloud.com"
  person_name = "Sam Ops"
}

resource "reseller_cloud_server" "web1" {
  host_name      = "web1.example-cloud.com"
  cloud_provider = "native"
  spec           = "medium"
  zone           = "dc_location-uk"
  period_months  = 1
  for_user       = reseller_stack_user.ops.email
  branded        = true

  timeouts {
    create = "45m"
  }

  # Destroying a cloud server only removes it from state (the API cannot cancel one).
  lifecycle {
    prevent_destroy = true
  }
}

# A hosting package placed on the server.
resource "reseller_package" "app" {
  domain_name  = "app.example-cloud.com"
  package_type = "Managed Cloud"
  cloud_server = reseller_cloud_server.web1.host_name
}
