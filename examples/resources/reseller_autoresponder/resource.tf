resource "reseller_package" "shop" {
  domain_name  = "example-holiday.com"
  package_type = "Linux Unlimited"
}

# An out-of-office reply over the holidays. The address needs no mailbox; times are
# ISO 8601 with a zone and are kept as UTC ("2026-12-24T09:00:00Z").
resource "reseller_autoresponder" "away" {
  package    = reseller_package.shop.domain_name
  local_part = "info"
  subject    = "Closed for the holidays"
  content    = "Thank you for your message. We are back on 2 January."
  start_time = "2026-12-24T10:00:00+01:00"
  end_time   = "2027-01-02T08:00:00Z"
  forward_to = "owner@example.org"
}
