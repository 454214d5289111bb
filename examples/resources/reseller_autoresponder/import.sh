terraform import reseller_autoresponder.away info@example-holiday.com
