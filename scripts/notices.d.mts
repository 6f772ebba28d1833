/** The licenses a bundled package may be under, as SPDX ids (see `notices.mjs`). */
export declare const allowedLicenses: ReadonlyArray<string>

/** Whether an SPDX expression is allowed: `A OR B` when one is, otherwise when every id is. */
export declare const licenseAllowed: (expression: string) => boolean

/** A license file of a package: its name in the package folder and its text. */
export interface LicenseText {
  readonly file: string
  readonly text: string
}

/** A third-party package a bundle was made from. */
export interface ThirdPartyPackage {
  readonly name: string
  readonly version: string
  /** The SPDX expression of its package.json (`license`, or the legacy `licenses`). */
  readonly license: string
  /** Its folder, absolute. */
  readonly dir: string
  readonly texts: ReadonlyArray<LicenseText>
}

/**
 * The third-party packages of a bundle's input files (relative to `workingDir` or absolute), sorted by
 * name; throws when one has a license outside `allowedLicenses`, none, or no license text.
 */
export declare const thirdPartyPackages: (
  inputs: Iterable<string>,
  workingDir: string
) => ReadonlyArray<ThirdPartyPackage>

/** The text of a notices file. */
export declare const renderNotices: (options: {
  readonly program: string
  readonly own: { readonly name: string; readonly version: string; readonly license: string }
  readonly packages: ReadonlyArray<ThirdPartyPackage>
}) => string

/** Writes a bundle's notices file, its package read from `workingDir`; returns the packages. */
export declare const writeNotices: (file: string, options: {
  readonly program: string
  readonly inputs: Iterable<string>
  readonly workingDir: string
}) => ReadonlyArray<ThirdPartyPackage>
