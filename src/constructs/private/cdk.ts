/**
 * The one module that loads the CDK for Terraform library. Every other construct file
 * imports cdktf's classes from here, so that the library can work with whichever
 * implementation the user's app is built on (cdktf, or its community successor
 * cdktn, which keeps the same API): the constructs must extend the very classes the
 * app's `App` and `TerraformStack` come from.
 */
import type * as Cdk from 'cdktf';

function loadCdk(): typeof Cdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('cdktf') as typeof Cdk;
}

const cdk = loadCdk();

export const {
  Annotations, App, DefaultTokenResolver, StringConcat, TerraformElement,
  TerraformProvider, TerraformResource, TerraformStack, Token, Tokenization,
  anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl,
} = cdk;
export type Annotations = Cdk.Annotations;
export type App = Cdk.App;
export type DefaultTokenResolver = Cdk.DefaultTokenResolver;
export type LocalExecProvisioner = Cdk.LocalExecProvisioner;
export type StringConcat = Cdk.StringConcat;
export type TerraformElement = Cdk.TerraformElement;
export type TerraformProvider = Cdk.TerraformProvider;
export type TerraformResource = Cdk.TerraformResource;
export type TerraformStack = Cdk.TerraformStack;
export type Token = Cdk.Token;
export type Tokenization = Cdk.Tokenization;
export type IResolvable = Cdk.IResolvable;
export type IResolveContext = Cdk.IResolveContext;
export type ITerraformDependable = Cdk.ITerraformDependable;
export type TerraformMetaArguments = Cdk.TerraformMetaArguments;
