#include "load/data/TpccProcedures.h"

namespace scalelab::tpcc {

// Variables are prefixed v_ and parameters p_ so that none shares a column's name (PL/pgSQL
// refuses an ambiguous reference). The draws in tprocc_new_order use MINSTD (x = x * 48271 mod
// 2^31 - 1), whose products fit a bigint.
std::string proceduresSql() {
    return R"SQL(
CREATE OR REPLACE FUNCTION tprocc_last_name(p_number integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT s[p_number / 100 + 1] || s[p_number / 10 % 10 + 1] || s[p_number % 10 + 1]
  FROM (SELECT ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING']) AS t(s)
$$;

CREATE OR REPLACE FUNCTION tprocc_new_order(p_w_id integer, p_warehouses integer, p_d_id integer, p_c_id integer,
                                            p_ol_cnt integer, p_rollback boolean, p_seed bigint, p_c_item integer)
RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v_x bigint := 1 + abs(p_seed % 2147483646);
  v_items integer[];
  v_supply integer[];
  v_quantity integer[];
  v_all_local integer := 1;
  v_w_tax numeric;
  v_d_tax numeric;
  v_o_id integer;
  v_discount numeric;
  v_line record;
  v_price numeric;
  v_dist text;
  v_amount numeric;
  v_total numeric := 0;
  v_a bigint;
BEGIN
  FOR i IN 1 .. p_ol_cnt LOOP
    v_x := v_x * 48271 % 2147483647;
    v_a := v_x % 8192;
    v_x := v_x * 48271 % 2147483647;
    v_items[i] := ((v_a | (1 + v_x % 100000)) + p_c_item) % 100000 + 1;
    v_x := v_x * 48271 % 2147483647;
    IF p_warehouses > 1 AND v_x % 100 = 0 THEN
      v_x := v_x * 48271 % 2147483647;
      v_supply[i] := 1 + v_x % (p_warehouses - 1);
      IF v_supply[i] >= p_w_id THEN v_supply[i] := v_supply[i] + 1; END IF;
      v_all_local := 0;
    ELSE
      v_supply[i] := p_w_id;
    END IF;
    v_x := v_x * 48271 % 2147483647;
    v_quantity[i] := 1 + v_x % 10;
  END LOOP;
  IF p_rollback THEN v_items[p_ol_cnt] := 100001; END IF;

  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_tax, d_next_o_id - 1 INTO v_d_tax, v_o_id;
  SELECT c_discount INTO v_discount FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, localtimestamp, NULL, p_ol_cnt, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);

  FOR v_line IN SELECT row_number() OVER (ORDER BY s, i) AS n, i, s, q
                FROM unnest(v_items, v_supply, v_quantity) AS t(i, s, q) ORDER BY s, i LOOP
    SELECT i_price INTO v_price FROM item WHERE i_id = v_line.i;
    IF NOT FOUND THEN
      RETURN NULL;  -- the unused item: the caller rolls the transaction back
    END IF;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity >= v_line.q + 10 THEN s_quantity - v_line.q
                                       ELSE s_quantity - v_line.q + 91 END,
                     s_ytd = s_ytd + v_line.q, s_order_cnt = s_order_cnt + 1,
                     s_remote_cnt = s_remote_cnt + CASE WHEN v_line.s <> p_w_id THEN 1 ELSE 0 END
      WHERE s_i_id = v_line.i AND s_w_id = v_line.s
      RETURNING CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                            WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                            WHEN 9 THEN s_dist_09 ELSE s_dist_10 END INTO v_dist;
    v_amount := v_line.q * v_price;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                            ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_o_id, p_d_id, p_w_id, v_line.n, v_line.i, v_line.s, NULL, v_line.q, v_amount, v_dist);
    v_total := v_total + v_amount;
  END LOOP;
  RETURN round(v_total * (1 - v_discount) * (1 + v_w_tax + v_d_tax), 2);
END $$;

-- The customer of a last name: position ceil(n / 2) in first-name order (clause 2.5.2.2).
CREATE OR REPLACE FUNCTION tprocc_customer_by_name(p_w_id integer, p_d_id integer, p_c_last text) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_n integer;
  v_c_id integer;
BEGIN
  SELECT count(*) INTO v_n FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
  SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
    ORDER BY c_first OFFSET (v_n - 1) / 2 LIMIT 1;
  RETURN v_c_id;
END $$;

CREATE OR REPLACE FUNCTION tprocc_payment(p_w_id integer, p_d_id integer, p_c_w_id integer, p_c_d_id integer,
                                          p_c_id integer, p_c_last text, p_amount numeric)
RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v_w_name text;
  v_d_name text;
  v_c_id integer := p_c_id;
  v_balance numeric;
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id RETURNING w_name INTO v_w_name;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id RETURNING d_name INTO v_d_name;
  IF p_c_last IS NOT NULL THEN
    v_c_id := tprocc_customer_by_name(p_c_w_id, p_c_d_id, p_c_last);
  END IF;
  UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
                      c_payment_cnt = c_payment_cnt + 1,
                      c_data = CASE WHEN c_credit = 'BC'
                                    THEN left(format('%s %s %s %s %s %s | ', v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, p_amount)
                                              || c_data, 500)
                                    ELSE c_data END
    WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id RETURNING c_balance INTO v_balance;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, localtimestamp, p_amount, v_w_name || '    ' || v_d_name);
  RETURN v_balance;
END $$;

CREATE OR REPLACE FUNCTION tprocc_order_status(p_w_id integer, p_d_id integer, p_c_id integer, p_c_last text)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_c_id integer := p_c_id;
  v_balance numeric;
  v_o_id integer;
  v_lines integer;
BEGIN
  IF p_c_last IS NOT NULL THEN
    v_c_id := tprocc_customer_by_name(p_w_id, p_d_id, p_c_last);
  END IF;
  SELECT c_balance INTO v_balance FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
  SELECT o_id INTO v_o_id FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id
    ORDER BY o_id DESC LIMIT 1;
  SELECT count(*) INTO v_lines FROM (SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
                                     FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id) l;
  RETURN v_lines;
END $$;

CREATE OR REPLACE FUNCTION tprocc_delivery(p_w_id integer, p_carrier_id integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_o_id integer;
  v_c_id integer;
  v_amount numeric;
  v_delivered integer := 0;
BEGIN
  FOR v_d IN 1 .. 10 LOOP
    -- The oldest undelivered order. Under read committed, one that a concurrent Delivery took
    -- while this one waited is gone when the lock is granted: the district is skipped.
    SELECT no_o_id INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d
      ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
    UPDATE orders SET o_carrier_id = p_carrier_id WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id
      RETURNING o_c_id INTO v_c_id;
    UPDATE order_line SET ol_delivery_d = localtimestamp WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
    SELECT sum(ol_amount) INTO v_amount FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
    UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
      WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
    v_delivered := v_delivered + 1;
  END LOOP;
  RETURN v_delivered;
END $$;

CREATE OR REPLACE FUNCTION tprocc_stock_level(p_w_id integer, p_d_id integer, p_threshold integer) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_next integer;
  v_low integer;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT count(DISTINCT s_i_id) INTO v_low FROM order_line JOIN stock ON s_i_id = ol_i_id AND s_w_id = p_w_id
    WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id >= v_next - 20 AND ol_o_id < v_next
      AND s_quantity < p_threshold;
  RETURN v_low;
END $$;
)SQL";
}

} // namespace scalelab::tpcc
