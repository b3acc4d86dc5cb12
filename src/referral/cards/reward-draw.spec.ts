import { drawReward } from './reward-draw';

describe('drawReward', () => {
  const rewards = [
    { value: '5.00', weight: 3 },
    { value: '50.00', weight: 1 },
  ];

  it('maps each draw below the weights’ sum to the value whose bucket holds it', () => {
    expect([0, 1, 2, 3].map((n) => drawReward(rewards, () => n))).toEqual([
      '5.00',
      '5.00',
      '5.00',
      '50.00',
    ]);
  });

  it('asks for a number below the sum of the weights', () => {
    const asked: number[] = [];
    drawReward(rewards, (below) => (asked.push(below), 0));
    expect(asked).toEqual([4]);
  });

  it('draws every value in proportion to its weight', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const v = drawReward(rewards);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    expect(counts.get('5.00')! / 4000).toBeGreaterThan(0.65);
    expect(counts.get('50.00')! / 4000).toBeGreaterThan(0.18);
  });

  it('refuses an empty list', () => {
    expect(() => drawReward([], () => 0)).toThrow(RangeError);
  });
});
