// Test-only: a few entries in the shape of Chromium's net/http/transport_security_state_static.json
// (comment lines, pins-only entries, a preloaded TLD, odd spacing and case), for the list's parser,
// store and command.

export const CHROMIUM_PRELOAD_LIST_SAMPLE = `// Copyright 2012 The Chromium Authors
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

// The top-level element is a dictionary with two keys: "pinsets" maps details
// of certificate pinning to a name and "entries" contains the HSTS details for
// each host.
{
  "pinsets": [
    {
      "name": "test",
      "static_spki_hashes": ["TestSPKI"]
    }
  ],

  "entries": [
    // Pinning-only entries have no "mode": they do not force HTTPS.
    { "name": "pinned-only.example", "policy": "custom", "pins": "test" },
    { "name": "dev", "policy": "public-suffix", "mode": "force-https", "include_subdomains": true },
    { "name": "localhost", "policy": "test", "mode": "force-https" },
    { "name": " Upper.Example ", "policy": "custom", "mode": "force-https", "include_subdomains": true },
    { "name": "not a host!", "policy": "custom", "mode": "force-https" },
    // BULK ENTRIES
    { "name": "qualitymudjacking.com", "policy": "bulk-1-year", "mode": "force-https", "include_subdomains": true },
    { "name": "exact.example", "policy": "bulk-18-weeks", "mode": "force-https" }
    // END OF 1-YEAR BULK HSTS ENTRIES
  ]
}
`;

/** What the parser keeps of the sample: force-https entries with a valid name, lower-cased. */
export const SAMPLE_PRELOADED = [
  { name: "dev", includeSubdomains: true },
  { name: "localhost", includeSubdomains: false },
  { name: "upper.example", includeSubdomains: true },
  { name: "qualitymudjacking.com", includeSubdomains: true },
  { name: "exact.example", includeSubdomains: false },
];
