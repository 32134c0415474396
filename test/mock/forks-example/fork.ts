// Each test's own copy of the prepared store: a fork of the global snapshot, under a new token.
export async function forkPrepared(mockUrl: string): Promise<string> {
  const response = await fetch(`${mockUrl}/__mock/forks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ snapshot: 'prepared' }),
  });
  if (response.status !== 201) throw new Error(`fork refused: ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  return token;
}
