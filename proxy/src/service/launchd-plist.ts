import { LAUNCHD_LABEL, type ServiceSettings } from './service-settings.ts';

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function stringElement(value: string, indent: string): string {
  return `${indent}<string>${xml(value)}</string>`;
}

/** A per-user agent that starts at login and is restarted after every exit (KeepAlive true). */
export function renderLaunchdPlist(settings: ServiceSettings, logDir: string): string {
  const env = settings.environment.flatMap(([name, value]) => [`\t\t<key>${xml(name)}</key>`, stringElement(value, '\t\t')]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '\t<key>Label</key>',
    stringElement(LAUNCHD_LABEL, '\t'),
    '\t<key>ProgramArguments</key>',
    '\t<array>',
    stringElement(settings.nodePath, '\t\t'),
    stringElement(settings.scriptPath, '\t\t'),
    stringElement('server', '\t\t'),
    '\t</array>',
    '\t<key>EnvironmentVariables</key>',
    '\t<dict>',
    ...env,
    '\t</dict>',
    '\t<key>WorkingDirectory</key>',
    stringElement(settings.workingDirectory, '\t'),
    '\t<key>RunAtLoad</key>',
    '\t<true/>',
    '\t<key>KeepAlive</key>',
    '\t<true/>',
    '\t<key>ThrottleInterval</key>',
    '\t<integer>5</integer>',
    '\t<key>StandardOutPath</key>',
    stringElement(`${logDir}/cache-fix-proxy.log`, '\t'),
    '\t<key>StandardErrorPath</key>',
    stringElement(`${logDir}/cache-fix-proxy.err`, '\t'),
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
