# Every domain name the account has registered (one read of the registration list).
data "reseller_domains" "all" {}

# The registrations that expire within 30 days: renew them before they lapse. A
# registration whose expiry the API does not give is left out.
output "expiring_within_30_days" {
  value = [
    for d in data.reseller_domains.all.domains : d.name
    if try(timecmp(d.expiry_date, timeadd(plantimestamp(), "720h")) < 0, false)
  ]
}

# Registrations on their way to another registrar.
output "transferring" {
  value = [for d in data.reseller_domains.all.domains : d.name if d.pending_transfer == true]
}
