resource "reseller_stack_user" "owner" {
  email       = "owner@example-agency.com"
  person_name = "Alex Owner"
}

# Link a package to the user: a reference, so Terraform creates the user first.
resource "reseller_package" "agency" {
  domain_name  = "example-agency.com"
  package_type = "Linux Unlimited"
  stack_user   = reseller_stack_user.owner.email
}
