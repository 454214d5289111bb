import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';
import { byCodePoint } from './order';

/**
 * The constructs' API reference (`docs/api/index.md`), generated from the JSDoc of what
 * `src/index.ts` exports, with the TypeScript compiler API (no extra dependency):
 * classes with their initializer, properties and (static) methods; props interfaces
 * with every property, its type and `@default`; enums with their members; type
 * aliases. Members declared outside src/ (inherited from `constructs`) are left to
 * that library's reference.
 */

export const API_REFERENCE_PATH = 'docs/api/index.md';

interface Entry {
  readonly name: string;
  readonly text: string;
}

export interface ApiReference {
  readonly files: Map<string, string>;
  /** `Name.member` of every exported construct, prop or enum member without JSDoc. */
  readonly undocumented: readonly string[];
  /** `XProps.prop` of every optional prop without `@default`. */
  readonly missingDefaults: readonly string[];
}

const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
const anchor = (name: string): string => name.toLowerCase().replace(/[^a-z0-9-]/g, '');

export function buildApiReference(root: string): ApiReference {
  const entry = join(root, 'src', 'index.ts');
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, skipLibCheck: true, types: [], noEmit: true,
  });
  const checker = program.getTypeChecker();
  // The compiler names files with forward slashes on every platform.
  const srcDir = `${join(root, 'src').split(sep).join('/')}/`;
  const inSrc = (node: ts.Node): boolean => node.getSourceFile().fileName.startsWith(srcDir);
  const undocumented: string[] = [];
  const missingDefaults: string[] = [];

  const docOf = (symbol: ts.Symbol, owner: string): string => {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (!text) undocumented.push(owner ? `${owner}.${symbol.getName()}` : symbol.getName());
    return text;
  };
  const tagOf = (symbol: ts.Symbol, tag: string): string | undefined => {
    const found = symbol.getJsDocTags(checker).find((t) => t.name === tag);
    return found ? ts.displayPartsToString(found.text).trim() : undefined;
  };
  const isInternal = (symbol: ts.Symbol): boolean => symbol.getJsDocTags(checker).some((t) => t.name === 'internal');
  const sourceOf = (decl: ts.Node): string => relative(root, decl.getSourceFile().fileName).split(sep).join('/');

  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const classes: Entry[] = [];
  const interfaces: Entry[] = [];
  const enums: Entry[] = [];
  const aliases: Entry[] = [];

  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const name = exported.getName();
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const decl = symbol.declarations?.[0];
    if (!decl) continue;
    if (ts.isClassDeclaration(decl)) classes.push({ name, text: classSection(name, symbol, decl) });
    else if (ts.isInterfaceDeclaration(decl)) interfaces.push({ name, text: interfaceSection(name, symbol, decl) });
    else if (ts.isEnumDeclaration(decl)) enums.push({ name, text: enumSection(name, symbol, decl) });
    else if (ts.isTypeAliasDeclaration(decl)) aliases.push({ name, text: aliasSection(name, symbol, decl) });
  }

  function heading(name: string, symbol: ts.Symbol, decl: ts.Node): string[] {
    return [`### ${name}`, '', `<sub>Declared in \`${sourceOf(decl)}\`.</sub>`, '', docOf(symbol, ''), ''];
  }

  function classSection(name: string, symbol: ts.Symbol, decl: ts.ClassDeclaration): string {
    const lines = heading(name, symbol, decl);
    const heritage = (decl.heritageClauses ?? []).map((h) => h.getText()).join(' ');
    const abstract = hasModifier(decl, ts.SyntaxKind.AbstractKeyword) ? 'abstract ' : '';
    if (heritage || abstract) lines.push(`\`${abstract}class ${name}${heritage ? ` ${heritage}` : ''}\``, '');
    const ctor = decl.members.find(ts.isConstructorDeclaration);
    if (ctor) lines.push(abstract ? '#### Initializer (of a subclass, through `super`)' : '#### Initializer', '', '```ts', `new ${name}(${ctor.parameters.map(parameterText).join(', ')})`, '```', '');
    const members = decl.members.filter((m) => m.name && !ts.isConstructorDeclaration(m) && isPublic(m));
    const statics = members.filter((m) => hasModifier(m, ts.SyntaxKind.StaticKeyword));
    const instance = members.filter((m) => !hasModifier(m, ts.SyntaxKind.StaticKeyword));
    const memberDocs = (title: string, list: ts.ClassElement[]) => {
      const documented = list
        .map((m) => ({ m, s: checker.getSymbolAtLocation(m.name!) }))
        .filter((x): x is { m: ts.ClassElement; s: ts.Symbol } => Boolean(x.s) && !isInternal(x.s!))
        .sort((a, b) => byCodePoint(a.s.getName(), b.s.getName()));
      if (!documented.length) return;
      lines.push(`#### ${title}`, '');
      for (const { m, s } of documented) {
        lines.push(`##### \`${signatureOf(name, m)}\``, '', docOf(s, name), '');
      }
    };
    memberDocs('Static methods', statics.filter((m) => ts.isMethodDeclaration(m)));
    memberDocs('Properties', instance.filter((m) => ts.isPropertyDeclaration(m) || ts.isGetAccessorDeclaration(m)));
    memberDocs('Methods', instance.filter((m) => ts.isMethodDeclaration(m)));
    return lines.join('\n');
  }

  function signatureOf(owner: string, m: ts.ClassElement): string {
    const member = m.name!.getText();
    if (ts.isMethodDeclaration(m)) {
      const prefix = hasModifier(m, ts.SyntaxKind.StaticKeyword) ? `${owner}.` : '';
      return `${prefix}${member}(${m.parameters.map(parameterText).join(', ')})${m.type ? `: ${m.type.getText()}` : ''}`;
    }
    const type = ts.isPropertyDeclaration(m) || ts.isGetAccessorDeclaration(m) ? m.type?.getText() : undefined;
    const readonly = ts.isGetAccessorDeclaration(m) || hasModifier(m, ts.SyntaxKind.ReadonlyKeyword) ? 'readonly ' : '';
    return `${readonly}${member}${type ? `: ${type}` : ''}`;
  }

  function interfaceSection(name: string, symbol: ts.Symbol, decl: ts.InterfaceDeclaration): string {
    const lines = heading(name, symbol, decl);
    const heritage = (decl.heritageClauses ?? []).map((h) => h.getText()).join(' ');
    if (heritage) lines.push(`\`interface ${name} ${heritage}\``, '');
    const props = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
      .filter((p) => p.declarations?.some(inSrc) && !isInternal(p))
      .sort((a, b) => byCodePoint(a.getName(), b.getName()));
    if (props.length) {
      lines.push('| Property | Type | Default | Description |', '|---|---|---|---|');
      for (const prop of props) {
        const pdecl = prop.declarations!.find(inSrc)! as ts.PropertySignature;
        const optional = pdecl.questionToken ? '?' : '';
        const type = pdecl.type ? pdecl.type.getText() : checker.typeToString(checker.getTypeOfSymbol(prop));
        const owner = ts.isInterfaceDeclaration(pdecl.parent) && pdecl.parent.name.text !== name ? ` (from \`${pdecl.parent.name.text}\`)` : '';
        const dflt = tagOf(prop, 'default');
        if (optional && dflt === undefined && name.endsWith('Props')) missingDefaults.push(`${name}.${prop.getName()}`);
        lines.push(`| \`${prop.getName()}${optional}\` | \`${cell(type)}\` | ${defaultCell(dflt, Boolean(optional))} | ${cell(docOf(prop, name))}${owner} |`);
      }
      lines.push('');
    }
    return lines.join('\n');
  }

  function enumSection(name: string, symbol: ts.Symbol, decl: ts.EnumDeclaration): string {
    const lines = heading(name, symbol, decl);
    lines.push('| Member | Value | Description |', '|---|---|---|');
    for (const member of decl.members) {
      const s = checker.getSymbolAtLocation(member.name)!;
      lines.push(`| \`${name}.${member.name.getText()}\` | \`${member.initializer ? cell(member.initializer.getText()) : ''}\` | ${cell(docOf(s, name))} |`);
    }
    lines.push('');
    return lines.join('\n');
  }

  function aliasSection(name: string, symbol: ts.Symbol, decl: ts.TypeAliasDeclaration): string {
    return [...heading(name, symbol, decl), '```ts', `type ${name} = ${decl.type.getText()}`, '```', ''].join('\n');
  }

  const byName = (a: Entry, b: Entry) => byCodePoint(a.name, b.name);
  const groups: [string, Entry[]][] = [
    ['Constructs', classes.sort(byName)],
    ['Props and interfaces', interfaces.sort(byName)],
    ['Enums', enums.sort(byName)],
    ['Types', aliases.sort(byName)],
  ];
  const out: string[] = [
    '<!-- generated by `npm run docs` from the JSDoc of what src/index.ts exports: do not edit -->',
    '# API reference: cdktf-reseller-hosting',
    '',
    "The constructs and their props, as `import { ... } from 'cdktf-reseller-hosting'` offers them. " +
      'Which Terraform resources they become: [the provider docs](../index.md).',
    '',
  ];
  for (const [title, entries] of groups) {
    if (!entries.length) continue;
    out.push(`- **${title}**: ${entries.map((e) => `[${e.name}](#${anchor(e.name)})`).join(', ')}`);
  }
  out.push('');
  for (const [title, entries] of groups) {
    if (!entries.length) continue;
    out.push(`## ${title}`, '');
    for (const e of entries) out.push(e.text.trimEnd(), '');
  }
  return { files: new Map([[API_REFERENCE_PATH, `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`]]), undocumented: [...new Set(undocumented)].sort(), missingDefaults: missingDefaults.sort() };
}

/**
 * `@default` as the table shows it: a value in code font; `- words` (the jsii
 * convention for a default that is not a value) as the words.
 */
function defaultCell(text: string | undefined, optional: boolean): string {
  if (text === undefined) return optional ? '' : '*required*';
  return text.startsWith('-') ? cell(text.replace(/^-\s*/, '')) : `\`${cell(text)}\``;
}

/** A parameter as a caller writes it: no `private readonly` of a parameter property. */
function parameterText(p: ts.ParameterDeclaration): string {
  const rest = p.dotDotDotToken ? '...' : '';
  const optional = p.questionToken ? '?' : '';
  return `${rest}${p.name.getText()}${optional}${p.type ? `: ${p.type.getText()}` : ''}${p.initializer ? ` = ${p.initializer.getText()}` : ''}`;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

function isPublic(node: ts.ClassElement): boolean {
  if (hasModifier(node, ts.SyntaxKind.PrivateKeyword) || hasModifier(node, ts.SyntaxKind.ProtectedKeyword)) return false;
  return !(node.name && (ts.isPrivateIdentifier(node.name) || node.name.getText().startsWith('_')));
}

export function apiReference(root: string): Map<string, string> {
  return buildApiReference(root).files;
}
