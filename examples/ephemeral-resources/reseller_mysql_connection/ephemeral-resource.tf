# A site, its database and its deploy, with no secret in state or plan (Terraform >= 1.10).
# The database password comes in as an ephemeral variable (a CI secret in TF_VAR_db_password,
# or the value of an `ephemeral "random_password"` where that provider is available).
variable "db_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "reseller_package" "app" {
  domain_name  = "example-app.com"
  package_type = "Linux Unlimited"
}

resource "reseller_mysql_database" "app" {
  package             = reseller_package.app.domain_name
  name                = "app"
  password_wo         = var.db_password
  password_wo_version = 1
}

# Opened after the database exists: stored_name is known only then. The password is
# handed on as given (the API never gives one back).
ephemeral "reseller_mysql_connection" "app" {
  package  = reseller_package.app.domain_name
  name     = reseller_mysql_database.app.stored_name
  password = var.db_password
}

ephemeral "reseller_ftp_credentials" "app" {
  package = reseller_package.app.package_id
}

# The deploy: uploads the site over FTP and writes its database settings, whenever the
# database is new. Ephemeral values may go into a provisioner's environment (Terraform
# hides its output); they never reach a trigger, the state or the plan.
resource "terraform_data" "deploy" {
  triggers_replace = [reseller_mysql_database.app.database_id]

  provisioner "local-exec" {
    command = "./deploy.sh"
    environment = {
      FTP_USER     = ephemeral.reseller_ftp_credentials.app.username
      FTP_PASSWORD = ephemeral.reseller_ftp_credentials.app.password
      DB_HOST      = ephemeral.reseller_mysql_connection.app.host
      DB_NAME      = ephemeral.reseller_mysql_connection.app.database
      DB_USER      = ephemeral.reseller_mysql_connection.app.user
      DB_PASSWORD  = ephemeral.reseller_mysql_connection.app.password
      DATABASE_URL = ephemeral.reseller_mysql_connection.app.url
    }
  }
}
