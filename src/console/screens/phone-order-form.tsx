// `n`: a phone order typed by support (issue 24 §2). The same operation as every other surface
// (create_order: the order API's fields and checks, the pack's price, the anti-fraud floor), the
// region and city suggested from the catalog as they are typed, answered with the order number.
// One idempotency key per form: submitting again after a timeout never makes a second order.
import { randomUUID } from 'node:crypto';
import { useEffect, useMemo, useState } from 'react';
import { Text } from 'ink';
import type { ScreenProps } from '../components/screen-props.ts';
import { Form, type FormField } from '../components/form.tsx';
import { citySuggestions, regionSuggestions } from '../components/suggest.ts';
import type { StoreView } from './orders-screen.tsx';

interface ProductView {
  id: string;
  store_id: string;
  name: string;
  packs: { code: string; quantity: number; price_formatted: string }[];
  default_pack: string | null;
}

const BUYER = ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'barrio', 'referencia'] as const;

export function PhoneOrderForm(props: ScreenProps & { stores: readonly StoreView[]; onDone: (orderId?: string) => void }) {
  const { session, text, width, color, notify, stores, onDone } = props;
  const [products, setProducts] = useState<ProductView[] | undefined>(undefined);
  const key = useMemo(() => `console-${randomUUID()}`, []);
  useEffect(() => {
    session
      .invoke<{ items: { id: string }[] }>('list_products', { status: 'active', limit: 50 })
      .then((page) => Promise.all(page.items.map((p) => session.invoke<ProductView>('get_product', { product_id: p.id }))))
      .then(
        (found) => {
          if (found.length > 0) return setProducts(found);
          notify(text.noProducts, 'error');
          onDone();
        },
        (e: unknown) => {
          notify(e instanceof Error ? e.message : String(e), 'error');
          onDone();
        },
      );
    // Read once, when the form opens.
  }, []);
  if (!products) return <Text>{text.loading}</Text>;
  const storeOf = (productId: string) => stores.find((s) => s.id === products.find((p) => p.id === productId)?.store_id);
  const fields: FormField[] = [
    { name: 'product_id', label: text.fields.product, options: products.map((p) => ({ value: p.id, label: stores.length > 1 ? `${p.name} · ${storeOf(p.id)?.name ?? ''}` : p.name })) },
    {
      name: 'pack',
      label: text.fields.pack,
      options: (values) => {
        const product = products.find((p) => p.id === values.product_id) ?? products[0]!;
        return product.packs.map((p) => ({ value: p.code, label: `${p.code} · ${p.price_formatted}` }));
      },
    },
    { name: 'nombre', label: text.fields.nombre },
    { name: 'telefono', label: text.fields.telefono },
    { name: 'departamento', label: text.fields.departamento, suggest: (value, values) => regionSuggestions(session, storeOf(values.product_id ?? '')?.country ?? '', value), hint: text.suggestHint },
    { name: 'ciudad', label: text.fields.ciudad, suggest: (value, values) => citySuggestions(session, storeOf(values.product_id ?? '')?.country ?? '', values.departamento ?? '', value), hint: text.suggestHint },
    { name: 'direccion', label: text.fields.direccion },
    { name: 'barrio', label: text.fields.barrio },
    { name: 'referencia', label: text.fields.referencia },
    { name: 'notes', label: text.note },
  ];
  return (
    <Form
      title={text.newOrderTitle}
      fields={fields}
      onSubmit={async (values) => {
        const product = products.find((p) => p.id === values.product_id)!;
        const buyer = Object.fromEntries(BUYER.filter((f) => (values[f] ?? '').trim() !== '' || ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion'].includes(f)).map((f) => [f, values[f] ?? '']));
        const order = await session.invoke<{ id: string; order_number: number; needs_review: boolean }>('create_order', {
          store_id: product.store_id,
          product_id: product.id,
          pack: values.pack,
          buyer,
          ...((values.notes ?? '').trim() && { notes: values.notes }),
          idempotency_key: key,
        });
        notify(order.needs_review ? text.createdForReview(order.order_number) : text.created(order.order_number), 'ok');
        onDone(order.id);
      }}
      onCancel={() => onDone()}
      text={text}
      width={width}
      color={color}
    />
  );
}
