import * as cdktf from 'cdktf';

/**
 * The ephemeral blocks of EphemeralResellerFtpCredentials and
 * EphemeralResellerMysqlConnection: CDK for Terraform 0.21 has no class for an
 * `ephemeral` block, so the library writes it itself. Under cdktn they synthesize the
 * same JSON as under cdktf, and the same block as cdktn's own TerraformEphemeralResource.
 */

type Cdk = typeof cdktf;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Lib = any;

function synth(cdk: Cdk, lib: Lib): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const stack = new cdk.TerraformStack(cdk.Testing.app({ stubVersion: true }), 'stack');
  const pw = new cdk.TerraformVariable(stack, 'db_password', { type: 'string', sensitive: true });
  pw.addOverride('ephemeral', true);
  const site = new lib.HostingPackage(stack, 'site', { domainName: 'eph.example', packageType: 'Linux Unlimited' });
  const db = new lib.MysqlDatabase(stack, 'db', { package: site, name: 'app', password: pw.value });
  new lib.EphemeralResellerMysqlConnection(stack, 'conn', { database: db, password: pw.value });
  new lib.EphemeralResellerFtpCredentials(stack, 'ftp', { package: '${reseller_package.site.package_id}' });
  const json = JSON.parse(cdk.Testing.synth(stack));
  delete json['//'];
  return json;
}

const underCdktf = synth(cdktf, require('../../src')); // eslint-disable-line @typescript-eslint/no-require-imports

test('under cdktf: the ephemeral blocks, named after the construct ids', () => {
  expect(underCdktf.ephemeral).toEqual({
    reseller_mysql_connection: { conn: { package: 'eph.example', name: '${reseller_mysql_database.db.stored_name}', password: '${var.db_password}' } },
    reseller_ftp_credentials: { ftp: { package: '${reseller_package.site.package_id}' } },
  });
});

test('under cdktn: the same JSON, and the block cdktn\'s own TerraformEphemeralResource writes', () => {
  let cdktn!: Cdk & { TerraformEphemeralResource: new (scope: unknown, id: string, config: Record<string, unknown>) => unknown };
  let lib!: Lib;
  jest.isolateModules(() => {
    process.env.RESELLER_HOSTING_CDK = 'cdktn';
    try {
      cdktn = require('cdktn'); // eslint-disable-line @typescript-eslint/no-require-imports
      lib = require('../../src'); // eslint-disable-line @typescript-eslint/no-require-imports
    } finally {
      delete process.env.RESELLER_HOSTING_CDK;
    }
  });
  expect(synth(cdktn, lib)).toEqual(underCdktf);

  // cdktn's own class, given the same arguments, writes the same block.
  const stack = new cdktn.TerraformStack(cdktn.Testing.app({ stubVersion: true }), 'native');
  class Native extends (cdktn.TerraformEphemeralResource as unknown as new (scope: unknown, id: string, config: Record<string, unknown>) => { synthesizeAttributes(): unknown }) {
    override synthesizeAttributes() {
      return { package: '${reseller_package.site.package_id}' };
    }
  }
  new Native(stack, 'ftp', { terraformResourceType: 'reseller_ftp_credentials' });
  expect(JSON.parse(cdktn.Testing.synth(stack as never)).ephemeral).toEqual({ reseller_ftp_credentials: { ftp: underCdktf.ephemeral.reseller_ftp_credentials.ftp } });
});
