import { useState } from 'react';

/** A new password twice, with the server's rule (12 to 1024 characters); answers it once both agree. */
export function usePasswordFields(label = 'New password') {
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const problem = [...first].length < 12 ? 'A password has at least 12 characters.' : first !== second ? 'The two passwords differ.' : null;
  const fields = (
    <>
      <label>
        {label}
        <input type="password" autoComplete="new-password" required maxLength={1024} value={first} onChange={(e) => setFirst(e.target.value)} />
      </label>
      <label>
        Repeat the password
        <input type="password" autoComplete="new-password" required value={second} onChange={(e) => setSecond(e.target.value)} />
      </label>
    </>
  );
  return { password: first, problem, fields };
}
