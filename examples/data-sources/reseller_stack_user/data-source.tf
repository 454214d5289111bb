# An existing control-panel user, to link a package to.
data "reseller_stack_user" "owner" {
  email = "owner@example.com"
}

output "owner_ref" {
  value = data.reseller_stack_user.owner.user_ref
}
