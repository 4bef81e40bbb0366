// Candidates as support types (issue 24 §2): the catalog's cities of the typed region whose name
// contains the text (list_cities, accents and case ignored), and regions likewise (list_regions).
import type { ConsoleSession } from '../console-session.ts';
import { foldCompact } from '../../domain/cities/fold.ts';

type CityPage = { items: { region: string; city: string }[] };

/** Up to five catalog cities containing `typed`, in `region` when it names one. */
export async function citySuggestions(session: ConsoleSession, country: string, region: string, typed: string): Promise<string[]> {
  if (typed.trim().length < 2 || !country) return [];
  const query = { country, query: typed.trim(), limit: 5 };
  const page = await session.invoke<CityPage>('list_cities', region.trim() ? { ...query, region: region.trim() } : query).catch(() => session.invoke<CityPage>('list_cities', query));
  return page.items.map((c) => c.city);
}

/** Each session's region lists, read once per country. */
const regionLists = new WeakMap<ConsoleSession, Map<string, Promise<string[]>>>();

/** Regions of the country whose name contains `typed` (the list read once per country). */
export async function regionSuggestions(session: ConsoleSession, country: string, typed: string): Promise<string[]> {
  const needle = foldCompact(typed);
  if (!country || !needle) return [];
  const lists = regionLists.get(session) ?? new Map<string, Promise<string[]>>();
  regionLists.set(session, lists);
  if (!lists.has(country)) lists.set(country, session.invoke<{ items: { name: string }[] }>('list_regions', { country }).then((r) => r.items.map((x) => x.name)));
  return (await lists.get(country)!).filter((r) => foldCompact(r).includes(needle)).slice(0, 5);
}
