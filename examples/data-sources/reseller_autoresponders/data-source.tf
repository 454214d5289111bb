# Every autoresponder of one package (leave package out for the whole account's).
data "reseller_autoresponders" "site" {
  package = "example.com"
}
