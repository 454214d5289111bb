variable "mailbox_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "reseller_package" "shop" {
  domain_name  = "example-shop.com"
  package_type = "Linux Unlimited"
}

resource "reseller_mailbox" "info" {
  package    = reseller_package.shop.domain_name
  local_part = "info"
  send       = true
  receive    = true

  # Write-only: never stored. Raise the version to set a new password.
  password_wo         = var.mailbox_password
  password_wo_version = 1

  # A new package (another cloud server, -replace) has deleted this mailbox with the old
  # one: the plan says so by replacing it too.
  lifecycle {
    replace_triggered_by = [reseller_package.shop.package_id]
  }
}
