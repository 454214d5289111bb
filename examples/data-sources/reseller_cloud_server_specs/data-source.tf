# Sizes of the native cloud with at least 2 CPUs and 4 GB of RAM.
data "reseller_cloud_server_specs" "medium_or_larger" {
  cloud_provider = "native"
  min_cpu        = 2
  min_ram_gb     = 4
}
