# Keep the registration from being transferred to another registrar. Unlocked in the
# control panel, the next plan shows it and the apply locks it again.
resource "reseller_domain_transfer_lock" "registered" {
  domain = "example-registered.net"
  locked = true
}
