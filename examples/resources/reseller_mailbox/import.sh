terraform import reseller_mailbox.info info@example-shop.com
