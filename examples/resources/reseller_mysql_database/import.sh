# package/name; the password stays as it is unless password_wo_version is configured
terraform import reseller_mysql_database.shop example-shop.com/shop
