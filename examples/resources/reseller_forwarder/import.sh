terraform import reseller_forwarder.sales sales@example-blog.com
