terraform import reseller_web_settings.web example-web.com
