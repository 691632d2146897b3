// A client-go exec credential plugin for tests: prints an ExecCredential with IPAMKIT_TEST_TOKEN.
process.stdout.write(
  JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: process.env.IPAMKIT_TEST_TOKEN } }),
);
