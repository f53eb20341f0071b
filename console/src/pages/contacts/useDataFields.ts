// The project's data fields (GET /contacts/fields without the standard ones), shared with the
// filter builder's cache: the list and the contact page read it once a minute at most.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import type { ContactFields } from '../ContactsTypes';
import type { FieldType, KnownField } from '../../ui/filterModel';

const fieldsKey = (projectId: string | undefined) => ['contacts', projectId, 'fields'];

export function useDataFields() {
  const { project } = useSession();
  const fields = useQuery({ queryKey: fieldsKey(project?.id), queryFn: () => api<ContactFields>('GET', '/contacts/fields'), staleTime: 60_000 });
  const data = useMemo<KnownField[]>(() => (fields.data?.fields ?? []).filter((f) => f.field.startsWith('data.')), [fields.data]);
  const typeOf = useMemo(() => {
    const types = new Map(data.map((f) => [f.field, f.type]));
    return (key: string): FieldType | undefined => types.get(`data.${key}`);
  }, [data]);
  return { query: fields, data, typeOf };
}
