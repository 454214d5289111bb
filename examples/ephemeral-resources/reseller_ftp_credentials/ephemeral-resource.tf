# The package's FTP user, read at plan and apply time (Terraform >= 1.10), never stored.
ephemeral "reseller_ftp_credentials" "site" {
  package = "shop.example.com" # or reseller_package.<name>.package_id, for a package this configuration creates
}

# Upload the site when its release changes; the credentials live only in the
# provisioner's environment for the length of the run.
resource "terraform_data" "upload" {
  triggers_replace = ["release-42"]

  provisioner "local-exec" {
    command = "./upload.sh"
    environment = {
      FTP_USER     = ephemeral.reseller_ftp_credentials.site.username
      FTP_PASSWORD = ephemeral.reseller_ftp_credentials.site.password
    }
  }
}
