terraform {
  required_providers {
    reseller = {
      source = "reseller-hosting.local/cdktf/reseller"
    }
  }
}

# The API key is read from the RESELLER_API_KEY environment variable.
provider "reseller" {
  api_url = "https://api.example-reseller.com" # default: RESELLER_API_URL
  # reseller_id = "12345"                      # default: RESELLER_ID, else the key's own account
}
