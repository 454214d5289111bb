terraform import reseller_package.site example.com
