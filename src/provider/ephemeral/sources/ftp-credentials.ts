import { isMissingObject } from '../../../client';
import { packageDomainOf, packageDomains } from '../../../reconcile';
import { computed, required, stringArg } from '../../data-sources/data-source';
import { EphemeralResource, sensitive } from '../ephemeral-resource';

/**
 * `ephemeral "reseller_ftp_credentials"`: a package's primary FTP user and its password
 * (`GET /package/{id}/web/ftpCredentials`), read when Terraform opens it (at plan and at
 * apply) straight from the API: no cache, no state, no plan. For a deploy step that
 * uploads the site (a provisioner's environment, another provider's configuration).
 */
export const ftpCredentials: EphemeralResource = {
  typeName: 'reseller_ftp_credentials',
  description:
    'The primary FTP user name and password of a hosting package, read from the API when Terraform opens it (at plan and apply time) and never stored ' +
    'in state or plan (Terraform >= 1.10). Give them to a deploy step: a provisioner\'s `environment`, a write-only attribute, another provider\'s configuration. ' +
    'Refer to a package the same configuration creates by its `package_id` (known after it is created), so that Terraform opens this after the package exists.',
  attributes: [
    required('package', 'string', 'The package: one of its domain names, or its id (`reseller_package.<name>.package_id`).'),
    computed('package_domain', 'string', 'Primary domain of the package.'),
    computed('username', 'string', 'The FTP user name.'),
    sensitive(computed('password', 'string', 'The FTP password (sensitive, ephemeral).')),
  ],
  async open(args, ctx) {
    const ref = stringArg(args, 'package') ?? '';
    const packageDomain = await packageDomainOf(ctx(), ref);
    const notFound = async () => ({ notFound: { attribute: 'package', value: ref, what: 'package', existing: await packageDomains(ctx()) } });
    if (!packageDomain) return notFound();
    try {
      // Read now, past every cache: a secret is not kept between calls.
      const { username, password } = await ctx().client.ftp.credentials(packageDomain);
      return { values: { package_domain: packageDomain, username, password } };
    } catch (err) {
      if (isMissingObject(err)) return notFound();
      throw err;
    }
  },
};
