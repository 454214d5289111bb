variable "db_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "reseller_package" "shop" {
  domain_name  = "example-shop.com"
  package_type = "Linux Unlimited"
}

resource "reseller_mysql_database" "shop" {
  package = reseller_package.shop.domain_name
  name    = "shop" # also the name of its MySQL user; a new name replaces it, with its data

  # Write-only: never stored. Raise the version to set a new password.
  password_wo         = var.db_password
  password_wo_version = 1

  # Deleting (or replacing) the database deletes its data. Set true (and apply) to have
  # a destroy only forget it instead; or protect it altogether:
  # keep_on_destroy = true
  # lifecycle { prevent_destroy = true }

  # A new package has deleted this database with the old one: the plan says so by
  # replacing it too.
  lifecycle {
    replace_triggered_by = [reseller_package.shop.package_id]
  }
}
