data "reseller_stack_users" "staff" {
  email_suffix = "@example.com"
}
