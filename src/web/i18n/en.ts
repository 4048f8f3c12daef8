/**
 * English messages of the pages: the shared ones here, each page's in its own
 * file (search.en.ts, chat.en.ts, admin.en.ts, analytics.en.ts). de.ts must have exactly the same keys
 * (checked by its type). Placeholders are `{name}`.
 */
import { analyticsEn } from './analytics.en.ts';
import { adminEn } from './admin.en.ts';
import { adminConnectorsEn } from './admin-connectors.en.ts';
import { chatEn } from './chat.en.ts';
import { searchEn } from './search.en.ts';

const common = {
  'app.name': 'Enterprise Search',
  'app.skip': 'Skip to content',
  'nav.label': 'Main',
  'nav.search': 'Search',
  'nav.chat': 'Chat',
  'nav.admin': 'Administration',
  'nav.signout': 'Sign out',
  'nav.signedInAs': 'Signed in as {email}',
  'lang.label': 'Language',
  'lang.de': 'Deutsch',
  'lang.en': 'English',
  'footer.text': 'Self-hosted enterprise search',

  'signin.title': 'Sign in',
  'signin.email': 'Email',
  'signin.password': 'Password',
  'signin.submit': 'Sign in',
  'signin.wrong': 'Wrong email or password.',
  'signin.throttled': 'Too many failed attempts. Try again in {minutes} minutes.',
  'signin.csrf': 'The form has expired. Please try again.',
  'signin.help': 'No password yet? Ask an administrator for a sign-in link.',
  'signin.signedOut': 'You have been signed out.',
  'signin.expired': 'Your session has ended. Please sign in again.',
  'link.title': 'Choose a password',
  'link.intro': 'Choose a password for {email}. You will be signed in afterwards.',
  'link.password': 'New password',
  'link.confirm': 'Repeat the password',
  'link.rules': 'At least 10 characters. A long passphrase is best.',
  'link.submit': 'Save password and sign in',
  'link.mismatch': 'The two passwords differ.',
  'link.invalid':
    'This sign-in link is not valid: it was used already, it expired, or it never existed. Ask an administrator for a new one.',
  'link.tooShort': 'The password must have at least 10 characters.',

  'sso.button': 'Sign in with {label}',
  'sso.or': 'or with email and password',
  'sso.state_invalid': 'The sign-in took too long or was already used. Please start again.',
  'sso.provider_error': 'The sign-in provider refused the sign-in.',
  'sso.provider_unreachable': 'The sign-in provider cannot be reached. Please try again later.',
  'sso.token_invalid': 'The sign-in provider answered with a token that cannot be trusted.',
  'sso.email_missing': 'The sign-in provider did not send an email address.',
  'sso.email_unverified': 'Your email address is not verified by the sign-in provider.',
  'sso.domain_not_allowed': 'Accounts of this email domain may not sign in here.',
  'signin.passwordsOff': 'Signing in with a password is turned off here.',

  'error.title': 'Something went wrong',
  'error.notFound': 'This page does not exist.',
  'error.forbidden': 'The request was refused (CSRF check failed). Reload the page and try again.',
  'error.back': 'Back to search',
} as const;

export const en = { ...common, ...searchEn, ...chatEn, ...adminEn, ...adminConnectorsEn, ...analyticsEn } as const;

export type Messages = { readonly [K in keyof typeof en]: string };
/** The German counterpart of an English message group. */
export type Translation<T> = { readonly [K in keyof T]: string };
