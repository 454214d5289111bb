terraform import reseller_stack_user.owner owner@example-agency.com
